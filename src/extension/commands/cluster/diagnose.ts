/**
 * "Kube Packet Path: Diagnose Service...": picks a Service (or takes the tree's row), a port and a source pod,
 * runs the checks inside that pod and on its node (src/cluster), and opens the report with the verdict. From an
 * endpoint row ("Diagnose Service from Here...") the endpoint's pod is the source. Tests and other commands pass
 * `{ namespace, service, port?, from?, container? }` and get the report back.
 */
import * as vscode from 'vscode';
import { t } from '../../../core/i18n/catalog';
import type { DiagnoseReport } from '../../../core/diagnose/types';
import { diagnoseService, portChoice } from '../../../cluster';
import { readSettings, uiLang } from '../../config';
import type { Ctx } from '../../ctx';
import { asClusterError } from '../../cluster/state';
import type { ClusterRow } from '../../cluster/tree';
import { confirmCreate, pickPort, pickService, pickSourcePod, requireTrust } from './pickers';

export interface DiagnoseArgs {
  namespace: string;
  service: string;
  port?: string;
  from?: string;
  container?: string;
}

function isRow(a: unknown): a is ClusterRow {
  return !!a && typeof a === 'object' && 'kind' in a;
}

export function diagnoseServiceCommand(ctx: Ctx, fromHere = false) {
  return async (arg?: ClusterRow | DiagnoseArgs): Promise<DiagnoseReport | undefined> => {
    if (!requireTrust()) return undefined;
    const state = ctx.cluster;
    let session;
    try {
      session = await state.open();
    } catch (e) {
      void vscode.window.showErrorMessage(asClusterError(e).oneLine(uiLang()));
      return undefined;
    }
    const want: Partial<DiagnoseArgs> = isRow(arg) ? {} : { ...arg };
    if (isRow(arg)) {
      if (arg.kind === 'service' || arg.kind === 'port' || arg.kind === 'endpoint') {
        want.namespace = arg.service.namespace;
        if (!fromHere || arg.kind !== 'endpoint') want.service = arg.service.name;
      }
      if (arg.kind === 'port' || (arg.kind === 'endpoint' && !fromHere)) want.port = portChoice(arg.port);
      if (fromHere && arg.kind === 'endpoint') want.from = arg.endpoint.pod;
    }
    try {
      if (!want.service) {
        const svc = await pickService(state, session, fromHere ? want.namespace : undefined);
        if (!svc) return undefined;
        want.namespace = svc.namespace;
        want.service = svc.name;
        want.port ??= await pickPort(svc);
      } else if (!want.port) {
        const svc = state.services.get(`${want.namespace}/${want.service}`);
        if (svc) want.port = await pickPort(svc);
      }
      const namespace = want.namespace ?? session.namespace;
      if (!want.from) {
        const pod = await pickSourcePod(session, namespace);
        if (!pod) return undefined;
        want.from = pod.name;
      }
      const settings = readSettings();
      const lang = uiLang();
      const service = want.service;
      const report = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: t(uiLang(), 'ui.diagnose.progress', { namespace, service, pod: want.from }),
          cancellable: true,
        },
        (progress, token) => {
          const ctl = new AbortController();
          token.onCancellationRequested(() => ctl.abort());
          return diagnoseService(session, {
            namespace,
            service,
            ...(want.port ? { port: want.port } : {}),
            ...(want.from ? { from: want.from } : {}),
            ...(want.container ? { container: want.container } : {}),
            timeoutMs: settings.checkTimeoutSeconds * 1000,
            lang,
            confirm: confirmCreate,
            debugImage: settings.debugImage,
            signal: ctl.signal,
            onProgress: (message) => {
              ctx.output.info(`diagnose: ${message}`);
              progress.report({ message });
            },
          });
        },
      );
      ctx.output.info(`diagnose ${namespace}/${service} from ${want.from}: ${report.verdict.code}`);
      await ctx.reports.show(report, lang);
      const copy = t(uiLang(), 'ui.diagnose.copy');
      void vscode.window
        .showInformationMessage(report.verdict.summary, copy)
        .then((choice) => (choice === copy ? ctx.reports.copy() : undefined));
      return report;
    } catch (e) {
      const err = asClusterError(e);
      if (err.code !== 'cancelled')
        void vscode.window.showErrorMessage(t(uiLang(), 'ui.diagnose.failed', { message: err.oneLine(uiLang()) }));
      return undefined;
    }
  };
}
