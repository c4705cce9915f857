import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.js';
import { BridgeProvider } from './app/bridge-context.js';
import { applyTheme, storedTheme } from './app/theme.js';
import { Icon } from './components/icons.js';
import { I18nProvider, useI18n } from './i18n/i18n.js';
import { chooseTransport } from './transport/choose-transport.js';
import './styles/base.css';
import './styles/layout.css';
import './styles/components.css';

/** Opened without the token (a bookmark, a copied address): say how to get in, nothing else. */
function TokenNeeded() {
  const { t } = useI18n();
  return (
    <main className="token-needed">
      <div className="token-card">
        <Icon name="key" size={28} />
        <h1>{t('token.title')}</h1>
        <p>{t('token.body')}</p>
      </div>
    </main>
  );
}

applyTheme(storedTheme());
const transport = chooseTransport();
const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <I18nProvider>
        {transport ? (
          <BridgeProvider transport={transport}>
            <App />
          </BridgeProvider>
        ) : (
          <TokenNeeded />
        )}
      </I18nProvider>
    </StrictMode>,
  );
}
