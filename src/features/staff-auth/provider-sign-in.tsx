import { useLingui } from '@lingui/react/macro';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { OIDC_FAILURES, type OidcFailure } from '../../../schemas/auth.ts';
import { inBackground } from '../../../sync/background.ts';
import { staffProviderApi } from '../../../sync/auth-api.ts';
import { useStaffRuntime } from '../../lib/runtime-context.tsx';
import { toast } from '../../lib/ui/toast-store.ts';
import { staffFailure } from './staff-errors.ts';
import { HospitalSignIn } from '../../components/hospital-sign-in.tsx';
import { ensureFullCatalog } from '../../lib/i18n.ts';
import './staff-auth.css';

interface Provider {
  id: string;
  name: string;
}

/** What the address's fragment says after the identity provider: a handoff code, or why nobody was signed in. */
export function providerReturn(hash: string): { code: string } | { failure: OidcFailure } | undefined {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const code = params.get('oidc');
  if (code) return { code };
  const failure = params.get('oidc-failure');
  const known = OIDC_FAILURES.find((f) => f === failure);
  return known ? { failure: known } : failure ? { failure: 'failed' } : undefined;
}

/**
 * Staff sign-in with the hospital's account (issue 48): one button per identity provider the server
 * is set up with (none: nothing shown). The provider sends the browser back here with a one-time
 * code in the address's fragment (`hash`), used once and taken out of the address at once.
 */
export function ProviderSignIn({ hash, onHashUsed }: { hash: string; onHashUsed: () => void }) {
  const { t } = useLingui();
  const staffRuntime = useStaffRuntime();
  const navigate = useNavigate();
  const [providers, setProviders] = useState<Provider[]>([]);
  // The card's words are in the full catalog (hospital-sign-in.tsx): loaded only when there is a card to show.
  const [wordsReady, setWordsReady] = useState(false);
  const loadWords = () => ensureFullCatalog().then(() => setWordsReady(true));

  // Why the provider's return signed nobody in (its words come with the full catalog), or the server's refusal of the code.
  const [failure, setFailure] = useState<OidcFailure | string | undefined>();
  // Busy from the first render when the provider's return carries a code to redeem.
  const [busy, setBusy] = useState(() => {
    const back = providerReturn(hash);
    return back !== undefined && 'code' in back;
  });
  // StrictMode runs effects twice: a code is redeemed once.
  const used = useRef<string | undefined>(undefined);

  useEffect(() => {
    let live = true;
    // Offline or an older server: no providers, the password form stays.
    staffProviderApi(staffRuntime.api)
      .identityProviders()
      .then(async ({ providers: list }) => {
        if (list.length > 0) await loadWords();
        if (live) setProviders(list);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [staffRuntime]);

  async function redeem(code: string) {
    try {
      const res = await staffProviderApi(staffRuntime.api).redeemSignIn({ code });
      const staff = await staffRuntime.session.adopt({
        token: res.token,
        role: res.staff.role,
        name: res.staff.name,
        email: res.staff.email,
        hospitals: res.staff.hospitals,
        expiresAt: res.expiresAt,
      });
      toast({
        type: 'success',
        text: staff.role === 'doctor' ? t`You have successfully logged in as doctor.` : t`You have successfully logged in.`,
      });
      await navigate({ to: '/admin/hospital-select', replace: true });
    } catch (err) {
      onHashUsed();
      setFailure(staffFailure(err, t`An unexpected error occurred`));
    } finally {
      setBusy(false);
    }
  }

  // The code is redeemed once, as it arrives; a failure's words are shown already: the address forgets both.
  const redeemArrived = useEffectEvent((code: string) => {
    inBackground(loadWords(), 'Loading the words of the hospital sign-in failed');
    inBackground(redeem(code), 'Signing in with the hospital account failed');
  });
  const forgetHash = useEffectEvent(onHashUsed);
  const arrived = providerReturn(hash);
  const code = arrived && 'code' in arrived ? arrived.code : undefined;
  const failed = arrived !== undefined && 'failure' in arrived ? arrived.failure : undefined;
  useEffect(() => {
    if (!failed) return;
    forgetHash();
    inBackground(
      ensureFullCatalog().then(() => setFailure(failed)),
      'Showing why the sign-in failed failed',
    );
  }, [failed]);
  useEffect(() => {
    if (!code || used.current === code) return;
    used.current = code;
    redeemArrived(code);
  }, [code]);

  // Shown once its words are loaded, and only where there is something to show.
  if (!wordsReady || (providers.length === 0 && !failure && !busy)) return null;
  return <HospitalSignIn providers={providers} failure={failure} busy={busy} />;
}
