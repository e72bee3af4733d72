// The web pages of iolens serve: one script, the page chosen by the path (body[data-page] set by the server).
import { comparePage } from './compare.js';
import { dashboardPage } from './dashboard.js';
import { jobPage } from './job.js';
import { jobsPage } from './jobs.js';
import { targetsPage } from './targets.js';
import { tracePage } from './trace.js';
import { uploadPage } from './upload.js';
import { errorBox, main } from './dom.js';

async function route(): Promise<void> {
  const page = document.body.dataset.page;
  if (page === 'upload') uploadPage();
  else if (page === 'jobs') await jobsPage();
  else if (page === 'job') await jobPage(location.pathname.split('/').pop() ?? '');
  else if (page === 'dashboard') await dashboardPage();
  else if (page === 'targets') await targetsPage();
  else if (page === 'trace') tracePage();
  else if (page === 'compare') await comparePage();
}

route().catch((err: unknown) => main().append(errorBox(err instanceof Error ? err.message : String(err))));
