/**
 * The contract's PASSWORD_MIN_LENGTH (auth.ts), repeated here because that module brings zod
 * with it; passwords.test.ts keeps the two equal. The server checks again anyway.
 */
export const PASSWORD_MIN = 10;

export type PasswordProblem = 'tooShort' | 'mismatch';

/** What is wrong with a new password typed twice, before anything is sent. */
export function passwordProblem(password: string, again: string): PasswordProblem | null {
  if (password.length < PASSWORD_MIN) return 'tooShort';
  if (password !== again) return 'mismatch';
  return null;
}
