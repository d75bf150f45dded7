import { useEffect, useId, useRef } from 'react';
import { SearchIcon } from './icon';

interface Props {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}

export function SearchField({ label, placeholder, value, onChange }: Props) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  // Text typed into the server's page before the app was live is searched once it is.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the app takes over.
  useEffect(() => {
    const typed = input.current?.value ?? '';
    if (typed !== value) onChange(typed);
  }, []);
  return (
    <div className="search-field">
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <SearchIcon className="search-field__icon" />
      <input
        ref={input}
        id={id}
        type="search"
        className="input search-field__input"
        placeholder={placeholder}
        value={value}
        autoComplete="off"
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}
