import { Trans } from '@lingui/react/macro';
import { useState } from 'react';
import { inBackground } from '../../../sync/background.ts';
import { isRunningInstalled, useInstallState } from '../../components/install-banner.tsx';
import { promptInstall } from '../../lib/pwa.ts';

/** Whether Eddy can be installed from here, or already is; works even after "Don't show again". */
export function InstallApp() {
  const state = useInstallState();
  const [standalone] = useState(isRunningInstalled);
  if (standalone) {
    return (
      <p>
        <Trans>Eddy is installed: you are using it as an app on this device.</Trans>
      </p>
    );
  }
  if (state.installed) {
    return (
      <p>
        <Trans>Eddy was installed. You can open it from your home screen.</Trans>
      </p>
    );
  }
  if (state.available) {
    return (
      <>
        <p className="field-hint">
          <Trans>Install Eddy to open it from your home screen like any other app, also without internet.</Trans>
        </p>
        <button type="button" className="button profile-action" onClick={() => inBackground(promptInstall(), 'Install prompt could not be shown')}>
          <Trans>Install app</Trans>
        </button>
      </>
    );
  }
  return (
    <p className="field-hint">
      <Trans>To install Eddy, open your browser's menu and choose "Install app" or "Add to Home screen".</Trans>
    </p>
  );
}
