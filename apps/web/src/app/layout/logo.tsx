import { PRODUCT_NAME } from '../../config';

export function Logo() {
  return (
    <span className="logo">
      <svg aria-hidden="true" width="30" height="30" viewBox="0 0 32 32">
        <rect width="32" height="32" rx="9" fill="currentColor" />
        <circle cx="15" cy="15" r="7" fill="none" stroke="#fff" strokeWidth="3" />
        <path d="m19.5 19.5 5 5" stroke="#fff" strokeWidth="3" strokeLinecap="round" />
      </svg>
      <span className="logo__text">{PRODUCT_NAME}</span>
    </span>
  );
}
