import type { ReactNode } from 'react';

interface IconProps {
  /** Width and height in CSS pixels; the drawing is always on a 24×24 grid. */
  size?: number;
  strokeWidth?: number;
  strokeLinecap?: 'round';
  strokeLinejoin?: 'round';
  /** Solid shapes (fill="currentColor", no stroke) instead of outlines. */
  filled?: boolean;
  className?: string;
}

/** Decorative 24×24 icon: the caller gives the shapes, the text next to it gives the meaning. */
export function Icon({
  children,
  size = 18,
  strokeWidth = 2,
  strokeLinecap,
  strokeLinejoin,
  filled = false,
  className,
}: IconProps & { children: ReactNode }) {
  return (
    <svg
      aria-hidden="true"
      className={className}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill={filled ? 'currentColor' : 'none'}
      stroke={filled ? undefined : 'currentColor'}
      strokeWidth={filled ? undefined : strokeWidth}
      strokeLinecap={strokeLinecap}
      strokeLinejoin={strokeLinejoin}
    >
      {children}
    </svg>
  );
}

export function ChevronIcon({ dir, ...props }: IconProps & { dir: 'left' | 'right' }) {
  return (
    <Icon {...props}>
      <path d={dir === 'left' ? 'm15 18-6-6 6-6' : 'm9 18 6-6-6-6'} />
    </Icon>
  );
}

export function CloseIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M6 6l12 12M18 6 6 18" />
    </Icon>
  );
}

export function SearchIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-3.5-3.5" />
    </Icon>
  );
}
