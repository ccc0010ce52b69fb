import '@cloudscape-design/global-styles/index.css';
import './dashboard.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { loadConfig } from './config';

const root = createRoot(document.getElementById('root')!);
void loadConfig().then((config) =>
  root.render(
    <StrictMode>
      <App apiUrl={config.apiUrl} />
    </StrictMode>,
  ),
);
