import type { AdminBranch, AdminBranchesResponse } from '@qless/contract';
import { type FormEvent, useId, useState } from 'react';
import { InputField, SelectField } from '../../../components/form/field';
import { FormNotice, type Notice, SubmitButton } from '../../../components/form/form-status';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { useI18n } from '../../../i18n/i18n';
import { setActingBranch } from '../../../lib/acting-branch';
import { apiErrorKey } from '../../../lib/error-keys';
import { useAsync } from '../../../lib/use-async';
import { copyService, createBranch, getBranches, updateBranch } from '../api/branches';
import { branchLabel } from './area-layout';
import { useOrganizationData } from './organization-data';

/** "4.0511" from a form field; undefined for blank; NaN for anything else (refused). */
function coordinate(value: FormDataEntryValue | null): number | undefined {
  const text = typeof value === 'string' ? value.trim().replace(',', '.') : '';
  if (text === '') return undefined;
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
}

/** Both or neither, each within range: what the API also checks. */
function position(data: FormData): { latitude: number | null; longitude: number | null } | null {
  const latitude = coordinate(data.get('latitude'));
  const longitude = coordinate(data.get('longitude'));
  if (latitude === undefined && longitude === undefined) return { latitude: null, longitude: null };
  if (
    latitude === undefined ||
    longitude === undefined ||
    !(Math.abs(latitude) <= 90) ||
    !(Math.abs(longitude) <= 180)
  ) {
    return null;
  }
  return { latitude, longitude };
}

/** A latitude and longitude pair, with a button that fills them from this device. */
function PositionFields({
  latitude,
  longitude,
}: {
  latitude?: number | null;
  longitude?: number | null;
}) {
  const { t } = useI18n();
  const [lat, setLat] = useState(latitude == null ? '' : String(latitude));
  const [lng, setLng] = useState(longitude == null ? '' : String(longitude));
  const [status, setStatus] = useState<string | null>(null);
  const locate = () => {
    if (!('geolocation' in navigator)) {
      setStatus(t('branches.position.unavailable'));
      return;
    }
    setStatus(t('branches.position.locating'));
    navigator.geolocation.getCurrentPosition(
      (found) => {
        setLat(found.coords.latitude.toFixed(5));
        setLng(found.coords.longitude.toFixed(5));
        setStatus(t('branches.position.found'));
      },
      () => setStatus(t('branches.position.unavailable')),
      { timeout: 15_000, maximumAge: 60_000 },
    );
  };
  return (
    <fieldset className="branches__position">
      <legend>{t('branches.position.legend')}</legend>
      <p className="field__hint">{t('branches.position.hint')}</p>
      <div className="branches__pair">
        <InputField
          label={t('branches.position.latitude')}
          name="latitude"
          inputMode="decimal"
          value={lat}
          onChange={(e) => setLat(e.currentTarget.value)}
        />
        <InputField
          label={t('branches.position.longitude')}
          name="longitude"
          inputMode="decimal"
          value={lng}
          onChange={(e) => setLng(e.currentTarget.value)}
        />
      </div>
      <button type="button" className="btn btn--secondary" onClick={locate}>
        {t('branches.position.here')}
      </button>
      <p aria-live="polite" className="field__hint">
        {status}
      </p>
    </fieldset>
  );
}

/** A refusal in the reader's language (never the server's English detail). */
function failure(error: unknown, t: ReturnType<typeof useI18n>['t']): Notice {
  return { tone: 'error', text: t(apiErrorKey(error)) };
}

/**
 * The organization's branches (decision 024): each with what it holds; this tab's
 * branch named and placed; for an organization admin, a new branch and a service copied to
 * several.
 */
export function BranchesScreen({ currentId }: { currentId: string }) {
  const { t } = useI18n();
  const [reloadKey, setReloadKey] = useState(0);
  const list = useAsync((signal) => getBranches(signal), [reloadKey]);
  const headingId = useId();

  return (
    <section className="panel branches" aria-labelledby={headingId}>
      <h1 id={headingId} className="page-title">
        {t('branches.title')}
      </h1>
      <p className="page-lead">{t('branches.lead')}</p>
      {list.status === 'loading' ? (
        <Spinner label={t('common.loading')} />
      ) : list.status === 'error' ? (
        <LoadError
          message={t(apiErrorKey(list.error))}
          retryLabel={t('common.retry')}
          onRetry={() => setReloadKey((k) => k + 1)}
        />
      ) : (
        <Branches
          data={list.data}
          currentId={currentId}
          onChanged={() => setReloadKey((k) => k + 1)}
        />
      )}
    </section>
  );
}

function Branches({
  data,
  currentId,
  onChanged,
}: {
  data: AdminBranchesResponse;
  currentId: string;
  onChanged: () => void;
}) {
  const { t } = useI18n();
  const current = data.branches.find((b) => b.organization_id === currentId);
  return (
    <>
      <ul className="branches__list">
        {data.branches.map((b) => (
          <li key={b.organization_id} className="card branches__item">
            <p className="branches__name">
              {branchLabel(b)}
              {b.head ? <span className="branches__tag">{t('branches.head')}</span> : null}
              {b.organization_id === currentId ? (
                <span className="branches__tag">{t('branches.current')}</span>
              ) : null}
            </p>
            <p className="branches__place">
              {b.city} · {b.location}
            </p>
            <p className="branches__facts">
              {t(b.services === 1 ? 'branches.services.one' : 'branches.services.other', {
                n: b.services,
              })}
              {' · '}
              {t(b.staff === 1 ? 'branches.staff.one' : 'branches.staff.other', { n: b.staff })}
              {' · '}
              {b.listed ? t('branches.listed') : t('branches.unlisted')}
            </p>
            {b.organization_id !== currentId ? (
              <button
                type="button"
                className="btn btn--secondary"
                onClick={() => {
                  setActingBranch(b.organization_id);
                  window.location.reload();
                }}
              >
                {t('branches.switch', { name: branchLabel(b) })}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {current ? <ThisBranch branch={current} onChanged={onChanged} /> : null}
      {data.can_manage ? <AddBranch onChanged={onChanged} /> : null}
      {data.can_manage && data.branches.length > 1 ? (
        <CopyService branches={data.branches} currentId={currentId} onChanged={onChanged} />
      ) : null}
    </>
  );
}

function ThisBranch({ branch, onChanged }: { branch: AdminBranch; onChanged: () => void }) {
  const { t } = useI18n();
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const where = position(data);
    if (!where) {
      setNotice({ tone: 'error', text: t('branches.position.invalid') });
      return;
    }
    const name = String(data.get('branch_name') ?? '').trim();
    setBusy(true);
    setNotice(null);
    try {
      await updateBranch({ ...(name ? { branch_name: name } : {}), ...where });
      setNotice({ tone: 'success', text: t('branches.saved') });
      onChanged();
    } catch (error) {
      setNotice(failure(error, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="form-card branches__form" onSubmit={submit} noValidate>
      <h2>{t('branches.this.title', { name: branchLabel(branch) })}</h2>
      <p className="field__hint">{t('branches.this.hint')}</p>
      <InputField
        label={t('branches.field.name')}
        name="branch_name"
        defaultValue={branch.branch_name ?? ''}
        maxLength={80}
      />
      <PositionFields latitude={branch.latitude} longitude={branch.longitude} />
      <FormNotice notice={notice} />
      <SubmitButton busy={busy} label={t('branches.save')} busyLabel={t('branches.saving')} />
    </form>
  );
}

function AddBranch({ onChanged }: { onChanged: () => void }) {
  const { t } = useI18n();
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const where = position(data);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    if (!text('branch_name') || !text('city') || !text('location')) {
      setNotice({ tone: 'error', text: t('branches.add.missing') });
      return;
    }
    if (!where) {
      setNotice({ tone: 'error', text: t('branches.position.invalid') });
      return;
    }
    setBusy(true);
    setNotice(null);
    try {
      const made = await createBranch({
        branch_name: text('branch_name'),
        city: text('city'),
        location: text('location'),
        ...where,
      });
      form.reset();
      setNotice({
        tone: 'success',
        text: t('branches.add.done', { name: branchLabel(made.branch) }),
      });
      onChanged();
    } catch (error) {
      setNotice(failure(error, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="form-card branches__form" onSubmit={submit} noValidate>
      <h2>{t('branches.add.title')}</h2>
      <p className="field__hint">{t('branches.add.hint')}</p>
      <InputField label={t('branches.field.name')} name="branch_name" maxLength={80} required />
      <InputField label={t('branches.field.city')} name="city" maxLength={100} required />
      <InputField label={t('branches.field.address')} name="location" maxLength={200} required />
      <PositionFields />
      <FormNotice notice={notice} />
      <SubmitButton busy={busy} label={t('branches.add.submit')} busyLabel={t('branches.saving')} />
    </form>
  );
}

function CopyService({
  branches,
  currentId,
  onChanged,
}: {
  branches: AdminBranch[];
  currentId: string;
  onChanged: () => void;
}) {
  const { t } = useI18n();
  const { state } = useOrganizationData();
  const services = state.status === 'ready' ? state.data.services.filter((s) => s.active) : [];
  const others = branches.filter((b) => b.organization_id !== currentId);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);
  const label = (id: string) => {
    const b = branches.find((x) => x.organization_id === id);
    return b ? branchLabel(b) : id;
  };
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const serviceId = String(data.get('service_id') ?? '');
    const targets = data.getAll('organization_ids').map(String);
    if (!serviceId || targets.length === 0) {
      setNotice({ tone: 'error', text: t('branches.copy.missing') });
      return;
    }
    setBusy(true);
    setNotice(null);
    try {
      const answer = await copyService(serviceId, { organization_ids: targets });
      setNotice({
        tone: 'success',
        text: [
          answer.copied.length > 0
            ? t('branches.copy.done', {
                names: answer.copied.map((c) => label(c.organization_id)).join(', '),
              })
            : '',
          answer.skipped.length > 0
            ? t('branches.copy.skipped', {
                names: answer.skipped.map((c) => label(c.organization_id)).join(', '),
              })
            : '',
        ]
          .filter(Boolean)
          .join(' '),
      });
      onChanged();
    } catch (error) {
      setNotice(failure(error, t));
    } finally {
      setBusy(false);
    }
  };
  if (services.length === 0) return null;
  return (
    <form className="form-card branches__form" onSubmit={submit} noValidate>
      <h2>{t('branches.copy.title')}</h2>
      <p className="field__hint">{t('branches.copy.hint')}</p>
      <SelectField label={t('branches.copy.service')} name="service_id" defaultValue="">
        <option value="" disabled>
          {t('branches.copy.pick')}
        </option>
        {services.map((s) => (
          <option key={s.service_id} value={s.service_id}>
            {s.service_name}
          </option>
        ))}
      </SelectField>
      <fieldset className="branches__targets">
        <legend>{t('branches.copy.to')}</legend>
        {others.map((b) => (
          <label key={b.organization_id} className="branches__target">
            <input type="checkbox" name="organization_ids" value={b.organization_id} />{' '}
            {branchLabel(b)} · {b.city}
          </label>
        ))}
      </fieldset>
      <FormNotice notice={notice} />
      <SubmitButton
        busy={busy}
        label={t('branches.copy.submit')}
        busyLabel={t('branches.saving')}
      />
    </form>
  );
}
