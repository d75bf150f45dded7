import type { MeResponse } from '@qless/contract';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { setActingBranch } from '../../../lib/acting-branch';
import { ApiError, isAbort, onUnauthorized } from '../../../lib/api-client';
import { getMe } from '../../../lib/get-me';
import { setSignedInHint } from '../../../lib/signed-in-hint';
import { logout } from '../api/logout';

export type SessionState =
  | { status: 'loading' }
  /** `expired`: a session that was in use ended (a 401 from some call), not a fresh visit. */
  | { status: 'signed-out'; expired: boolean }
  | {
      status: 'signed-in';
      user: MeResponse['user'];
      /** The branch this tab acts on (decision 024). */
      organization: MeResponse['organization'];
      /** Every branch the account may act on, head first (one for most accounts). */
      branches: MeResponse['branches'];
    }
  /** The server could not be asked (network): neither in nor out. */
  | { status: 'error'; error: unknown };

export interface Session {
  state: SessionState;
  /** Asks the server again (after a profile change renamed the organization, for instance). */
  refresh: () => Promise<void>;
  /** Ends the session on the server, then here; rejects when the server could not be told. */
  signOut: () => Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

/**
 * The signed-in person, read from GET /auth/me. The token lives only in the HttpOnly
 * cookie, so the session is whatever the server says it is; a 401 from any call made
 * while signed in means it ended (expired, revoked, password changed elsewhere).
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  const stateRef = useRef(state);
  stateRef.current = state;

  const load = useCallback(async (signal?: AbortSignal) => {
    try {
      let me: Awaited<ReturnType<typeof getMe>>;
      try {
        me = await getMe(signal);
      } catch (error) {
        // The branch this tab remembered is no longer the account's (another account signed
        // in, or the branch was taken from them): back to the account's own.
        if (!(error instanceof ApiError && error.code === 'BRANCH_FORBIDDEN')) throw error;
        setActingBranch(null);
        me = await getMe(signal);
      }
      if (me) {
        setState({
          status: 'signed-in',
          user: me.user,
          organization: me.organization,
          branches: me.branches,
        });
        return;
      }
      // Before any answer nobody was signed in: a plain "not logged in". Later, the 401
      // listener has already said the session ended, and that message stays.
      setState((s) =>
        s.status === 'loading' || s.status === 'error'
          ? { status: 'signed-out', expired: false }
          : s,
      );
    } catch (error) {
      if (isAbort(error)) return;
      // A refresh that fails on the network keeps the session it had.
      setState((s) => (s.status === 'signed-in' ? s : { status: 'error', error }));
    }
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);

  useEffect(
    () =>
      onUnauthorized((error) => {
        // A wrong password on a form is a 401 too, but not the end of a session.
        if (error.code === 'INVALID_CREDENTIALS') return;
        if (stateRef.current.status === 'signed-in') {
          setState({ status: 'signed-out', expired: true });
        }
      }),
    [],
  );

  // The site's top bar shows the staff link instead of Register / Log in.
  useEffect(() => {
    if (state.status === 'signed-in') setSignedInHint(true);
    else if (state.status === 'signed-out') setSignedInHint(false);
  }, [state.status]);

  const value = useMemo<Session>(
    () => ({
      state,
      refresh: () => load(),
      signOut: async () => {
        try {
          await logout();
        } catch (error) {
          // Already ended on the server: signing out has nothing left to do there.
          if (!(error instanceof ApiError && error.status === 401)) throw error;
        }
        setActingBranch(null);
        setState({ status: 'signed-out', expired: false });
      },
    }),
    [state, load],
  );

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}
