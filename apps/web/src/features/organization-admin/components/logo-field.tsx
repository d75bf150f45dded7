import { type ChangeEvent, useEffect, useRef, useState } from 'react';
import { Field } from '../../../components/form/field';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import { uploadLogo } from '../api/upload-logo';
import { formErrors } from '../lib/form-errors';
import { LOGO_TYPES, logoFileProblem } from '../lib/logo-file';

type Logo =
  | { status: 'idle' }
  | { status: 'uploading'; preview: string }
  | { status: 'uploaded' }
  | { status: 'failed'; reason: MessageKey };

/** Where the new logo's URL goes (null: no logo). */
type OnImage = (url: string | null) => void;

/**
 * The logo's upload, apart from the profile's save: a chosen file is uploaded at once and
 * its URL handed on; the profile's Save waits while it is on its way.
 */
export function useLogoUpload() {
  const [logo, setLogo] = useState<Logo>({ status: 'idle' });
  const fileInput = useRef<HTMLInputElement>(null);

  const preview = logo.status === 'uploading' ? logo.preview : null;
  useEffect(() => {
    if (!preview) return;
    return () => URL.revokeObjectURL(preview);
  }, [preview]);

  const clearInput = () => {
    if (fileInput.current) fileInput.current.value = '';
  };

  const choose = async (event: ChangeEvent<HTMLInputElement>, onImage: OnImage) => {
    const file = event.target.files?.[0];
    if (!file) return;
    const problem = logoFileProblem(file);
    if (problem) {
      setLogo({ status: 'failed', reason: problem });
      event.target.value = '';
      return;
    }
    setLogo({ status: 'uploading', preview: URL.createObjectURL(file) });
    try {
      onImage(await uploadLogo(file));
      setLogo({ status: 'uploaded' });
    } catch (error) {
      const found = formErrors(error, { file: null });
      setLogo({
        status: 'failed',
        reason: found.fields.file ?? found.other[0] ?? 'error.generic',
      });
      clearInput();
    }
  };

  const remove = (onImage: OnImage) => {
    onImage(null);
    setLogo({ status: 'idle' });
    clearInput();
  };

  return {
    logo,
    preview,
    fileInput,
    choose,
    remove,
    uploading: logo.status === 'uploading',
    /** After a save: the saved logo is the one shown, nothing is on its way. */
    reset: () => setLogo({ status: 'idle' }),
  };
}

export type LogoUpload = ReturnType<typeof useLogoUpload>;

/** The logo: its preview, the file picker, Remove, and the upload's progress announced. */
export function LogoField({
  upload,
  imageUrl,
  onImage,
  error,
}: {
  upload: LogoUpload;
  imageUrl: string | null;
  onImage: OnImage;
  /** The server's refusal of the saved URL. */
  error: string | undefined;
}) {
  const { t } = useI18n();
  const { logo } = upload;
  const shown = upload.preview ?? imageUrl;
  return (
    <>
      <Field
        label={t('profile.logo')}
        hint={t('profile.logoHint')}
        error={
          logo.status === 'failed' ? t('profile.logoFailed', { reason: t(logo.reason) }) : error
        }
      >
        {(ids) => (
          <div className="logo-field">
            {shown ? (
              <img
                className="logo-field__preview"
                src={shown}
                alt={t('profile.logoPreview')}
                width={96}
                height={96}
              />
            ) : (
              <span className="hint">{t('profile.logoNone')}</span>
            )}
            <input
              {...ids}
              ref={upload.fileInput}
              name="file"
              type="file"
              className="visually-hidden logo-field__input"
              accept={LOGO_TYPES.join(',')}
              onChange={(event) => upload.choose(event, onImage)}
            />
            <label htmlFor={ids.id} className="btn btn--secondary btn--small logo-field__pick">
              {t('profile.logoChoose')}
            </label>
            {imageUrl && !upload.uploading ? (
              <button
                type="button"
                className="btn btn--secondary btn--small"
                onClick={() => upload.remove(onImage)}
              >
                {t('profile.logoRemove')}
              </button>
            ) : null}
          </div>
        )}
      </Field>
      <p className="hint" aria-live="polite">
        {logo.status === 'uploading' ? t('profile.logoUploading') : null}
        {logo.status === 'uploaded' ? t('profile.logoReady') : null}
      </p>
    </>
  );
}
