import { hydrateRoot } from 'react-dom/client';
import { App } from '../theme/App.js';
import type { ClientPage, SiteData } from '../pages/types.js';

interface BootData { site: SiteData; page: ClientPage }

const data = JSON.parse(document.getElementById('__PYBOOK_DATA__')!.textContent!) as BootData;
const root = document.getElementById('__pybook')!;
// The content HTML is already in the DOM; read it back rather than shipping it twice.
const html = root.querySelector('.markdown')?.innerHTML ?? '';
hydrateRoot(root, <App site={data.site} page={data.page} html={html} />);
