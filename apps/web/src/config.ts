/** The brand shown in the UI; one constant so a rename is one line (env: VITE_PRODUCT_NAME). */
export const PRODUCT_NAME: string = import.meta.env?.VITE_PRODUCT_NAME || 'Qless';

/** Footer links that point outside the product. */
export const EXTERNAL_LINKS = {
  faq: 'https://qless.substack.com/p/faq',
  facebook: 'https://www.facebook.com/',
  instagram: 'https://www.instagram.com/',
  linkedin: 'https://www.linkedin.com/',
} as const;
