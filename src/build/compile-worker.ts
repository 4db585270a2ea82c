import { parentPort } from 'node:worker_threads';
import { runCompileJob, type CompileJob } from './compile-jobs.js';

// A second thread for the markdown pipeline: the parent sends a batch of jobs, gets outcomes back.
parentPort?.on('message', (jobs: CompileJob[]) => {
  parentPort?.postMessage(jobs.map(runCompileJob));
});
