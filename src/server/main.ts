/**
 * The entry of the language server's bundle (`node dist/server.js --stdio`, or the transport the client names):
 * the server, or with WORKER_ARG (a worker thread's argv) one of its analysis workers. Each role requires only its
 * own modules: a worker has no use for the protocol's connection, nor the server's main thread for the engines'
 * features.
 */
import { WORKER_ARG } from './workerArg';
import { startFirstWorker } from './workerThread';

if (require.main === module) {
  if (process.argv.includes(WORKER_ARG)) (require('./worker') as typeof import('./worker')).runWorker();
  else {
    // The first analysis worker boots while the server's modules load and the editor initializes.
    startFirstWorker(__filename);
    (require('./languageServer') as typeof import('./languageServer')).serve();
  }
}
