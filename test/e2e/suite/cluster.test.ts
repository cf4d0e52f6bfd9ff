// The cluster half in a real VS Code against the lab (scripts/e2e/run.mjs brings up seed-gateway-bypass as
// root and sets kubePacketPath.kubeconfig): the Cluster view lists the lab's Services and nodes, Diagnose
// opens a report with the seed's verdict, Capture Node Rules opens the node's rules in the iptables language.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DiagnoseReport } from '../../../src/core/diagnose/types';
import type { KubePacketPathApi } from '../../../src/extension/main';
import type { ClusterRow } from '../../../src/extension/cluster/tree';
import { ourExtension, waitFor } from '../support/host';

const LAB = process.env.KPP_E2E_LAB;

async function api(): Promise<KubePacketPathApi> {
  const extension = ourExtension() as vscode.Extension<KubePacketPathApi>;
  return extension.isActive ? extension.exports : extension.activate();
}

function label(tree: KubePacketPathApi['clusterTree'], row: ClusterRow): string {
  const l = tree.getTreeItem(row).label;
  return typeof l === 'string' ? l : (l?.label ?? '');
}

suite('cluster view and diagnosis (lab)', function () {
  suiteSetup(function () {
    if (!LAB) {
      console.log('cluster suite skipped: no lab cluster (scripts/e2e/run.mjs starts one as root)');
      this.skip();
    }
  });

  test('the Cluster view lists the lab Services under their namespaces, and its nodes', async () => {
    const { clusterTree: tree } = await api();
    await vscode.commands.executeCommand('kubePacketPath.cluster.focus');
    const context = await waitFor(
      'the context row',
      () => tree.getChildren().find((r) => r.kind === 'context'),
      30_000,
    );
    assert.equal(label(tree, context), 'kpp-lab');
    const nsDefault = await waitFor(
      'namespace default with its Services',
      () => tree.getChildren(context).find((r) => r.kind === 'namespace' && r.namespace === 'default'),
      30_000,
    );
    const services = tree.getChildren(nsDefault).map((r) => label(tree, r));
    assert.ok(
      services.includes('kubernetes') && services.includes('web'),
      `Services of default: ${services.join(', ')}`,
    );
    const web = tree.getChildren(nsDefault).find((r) => r.kind === 'service' && r.service.name === 'web');
    assert.ok(web);
    assert.match(String(tree.getTreeItem(web).description), /ClusterIP \S+ 80\/TCP/);
    const port = tree.getChildren(web)[0];
    const endpoints = await waitFor('web endpoints', () => {
      const rows = tree.getChildren(port).filter((r) => r.kind === 'endpoint');
      return rows.length ? rows : undefined;
    });
    assert.ok(
      endpoints.every((r) => r.kind === 'endpoint' && r.endpoint.ready),
      'every web endpoint is ready',
    );
    assert.ok(
      endpoints.some((r) => /web-\d/.test(String(tree.getTreeItem(r).description))),
      'endpoint rows name their pod',
    );
    const nodesFolder = tree.getChildren(context).find((r) => r.kind === 'nodes');
    assert.ok(nodesFolder);
    const nodes = await waitFor('two nodes', () => {
      const rows = tree.getChildren(nodesFolder).filter((r) => r.kind === 'node');
      return rows.length >= 2 ? rows : undefined;
    });
    assert.deepEqual(nodes.map((r) => label(tree, r)).sort(), ['node-a', 'node-b']);
  });

  test('Diagnose Service on the seed case opens a report naming the gateway bypass', async () => {
    const report = await vscode.commands.executeCommand<DiagnoseReport | undefined>('kubePacketPath.diagnoseService', {
      namespace: 'default',
      service: 'kubernetes',
      from: 'client',
    });
    assert.ok(report, 'a report came back');
    assert.equal(report.verdict.code, 'pod-route-bypasses-node', report.verdict.summary);
    const doc = await waitFor('the report document', () =>
      vscode.workspace.textDocuments.find(
        (d) => d.languageId === 'markdown' && d.getText().includes('pod-route-bypasses-node'),
      ),
    );
    assert.match(doc.getText(), /eth1/);
    assert.ok(await vscode.commands.executeCommand<boolean>('kubePacketPath.copyReport'));
    assert.match(await vscode.env.clipboard.readText(), /pod-route-bypasses-node/);
  });

  test('Capture Node Rules opens the node rules with the language server', async () => {
    const result = await vscode.commands.executeCommand<{ rules?: vscode.TextDocument; via: string } | undefined>(
      'kubePacketPath.captureNodeRules',
      'node-a',
    );
    assert.ok(result?.rules, 'a rules dump was captured');
    assert.equal(result.rules.languageId, 'iptables');
    assert.match(result.via, /kube-proxy/);
    assert.match(result.rules.getText(), /KUBE-SERVICES/);
  });
});
