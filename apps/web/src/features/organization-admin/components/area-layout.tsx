import type { Role } from '@qless/contract';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { CloseIcon, Icon } from '../../../components/ui/icon';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';

export interface AreaNavItem {
  href: string;
  label: MessageKey;
  current: boolean;
}

const ROLE_KEYS: Record<Role, MessageKey> = {
  org_admin: 'area.role.org_admin',
  branch_manager: 'area.role.branch_manager',
  staff: 'area.role.staff',
  operator: 'area.role.operator',
};

/** The initial of a name for the avatar ("é" → "É"); a name in no script gets "?". */
export function initialOf(name: string): string {
  const first = Array.from(name.trim())[0];
  return first ? first.toLocaleUpperCase() : '?';
}

export function Avatar({ name, logoUrl }: { name: string; logoUrl: string | null }) {
  const [broken, setBroken] = useState(false);
  // A new logo deserves a new try even if the old one failed to load.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the URL changes.
  useEffect(() => setBroken(false), [logoUrl]);
  return (
    <span className="avatar" aria-hidden="true">
      {logoUrl && !broken ? (
        <img src={logoUrl} alt="" width={48} height={48} onError={() => setBroken(true)} />
      ) : (
        initialOf(name)
      )}
    </span>
  );
}

/** A branch as the area's switch offers it. */
export interface AreaBranch {
  id: string;
  branch_name: string | null;
  city: string;
}

/** "Akwa", or the city for a branch never named (the head of a one-place organization). */
export function branchLabel(branch: Pick<AreaBranch, 'branch_name' | 'city'>): string {
  return branch.branch_name ?? branch.city;
}

/**
 * Which branch this tab acts on (decision 024): a select when the account has several, the
 * branch's name when it has one, nothing for a one-place organization.
 */
function BranchSwitch({
  branches,
  currentId,
  onSwitch,
}: {
  branches: readonly AreaBranch[];
  currentId: string;
  onSwitch: (id: string) => void;
}) {
  const { t } = useI18n();
  const id = useId();
  const current = branches.find((b) => b.id === currentId);
  if (branches.length < 2) {
    return current?.branch_name ? <p className="area__branch">{current.branch_name}</p> : null;
  }
  return (
    <p className="area__branch">
      <label htmlFor={id}>{t('area.branch.label')}</label>{' '}
      <select id={id} value={currentId} onChange={(e) => onSwitch(e.currentTarget.value)}>
        {branches.map((b) => (
          <option key={b.id} value={b.id}>
            {branchLabel(b)}
          </option>
        ))}
      </select>
    </p>
  );
}

/**
 * The area's frame: a header with the organization's name and avatar (and its branch), and
 * the sidebar, folded behind a Menu button on narrow screens.
 */
export function AreaLayout({
  organizationName,
  logoUrl,
  email,
  role,
  items,
  location,
  onLogout,
  branches = [],
  currentBranchId = '',
  onSwitchBranch = () => {},
  children,
}: {
  organizationName: string;
  logoUrl: string | null;
  email: string;
  role: Role;
  items: AreaNavItem[];
  /** The current path: the folded menu closes when it changes. */
  location: string;
  onLogout: () => Promise<void>;
  /** The account's branches; the branch this tab acts on; how to act on another. */
  branches?: readonly AreaBranch[];
  currentBranchId?: string;
  onSwitchBranch?: (id: string) => void;
  children: ReactNode;
}) {
  const { t } = useI18n();
  const navId = useId();
  const [open, setOpen] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const [logoutFailed, setLogoutFailed] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation.
  useEffect(() => setOpen(false), [location]);

  const logout = async () => {
    setLeaving(true);
    setLogoutFailed(false);
    try {
      await onLogout();
    } catch {
      setLogoutFailed(true);
      setLeaving(false);
    }
  };

  return (
    <div className="container area">
      <header className="area__head">
        <Avatar name={organizationName} logoUrl={logoUrl} />
        <div className="area__who">
          <p className="area__org">{organizationName}</p>
          <BranchSwitch branches={branches} currentId={currentBranchId} onSwitch={onSwitchBranch} />
          <p className="area__role">
            {t(ROLE_KEYS[role])}
            <span className="area__email"> · {email}</span>
          </p>
        </div>
        <button
          type="button"
          className="btn btn--secondary area__menu-toggle"
          aria-expanded={open}
          aria-controls={navId}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? (
            <CloseIcon size={20} strokeLinecap="round" />
          ) : (
            <Icon size={20} strokeLinecap="round">
              <path d="M4 7h16M4 12h16M4 17h16" />
            </Icon>
          )}
          {t('area.menu')}
        </button>
      </header>
      <div className="area__body">
        <nav
          id={navId}
          className={open ? 'area__nav is-open' : 'area__nav'}
          aria-label={t('area.nav.label')}
        >
          <ul>
            {items.map((item) => (
              <li key={item.href}>
                <a href={item.href} aria-current={item.current ? 'page' : undefined}>
                  {t(item.label)}
                </a>
              </li>
            ))}
            <li>
              <button type="button" className="area__logout" onClick={logout} disabled={leaving}>
                {leaving ? t('area.nav.loggingOut') : t('area.nav.logout')}
              </button>
            </li>
          </ul>
        </nav>
        <div className="area__content">
          {logoutFailed ? <Alert tone="error">{t('area.logoutFailed')}</Alert> : null}
          {children}
        </div>
      </div>
    </div>
  );
}
