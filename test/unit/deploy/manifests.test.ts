import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { configFromObject, parseListen } from '../../../host/config.js';
import { ROUTES, routePaths } from '../../../host/routes/index.js';

const manifest = (name: string) => parseAllDocuments(readFileSync(`deploy/k8s/${name}`, 'utf8')).map((doc) => doc.toJS());
const served = new Set(ROUTES.filter((route) => route.method === 'GET').flatMap(routePaths));

describe('deploy/k8s manifests', () => {
  const [configMap] = manifest('configmap.yaml');
  const config = configFromObject(parse(configMap.data['address-service.yaml']), 'configmap.yaml');
  const [deployment] = manifest('deployment.yaml');
  const container = deployment.spec.template.spec.containers[0];

  it('carries a config the service accepts', () => {
    expect(config.dictionaries.Dir).toBe('/app/build/dictionaries');
  });

  it('probes GET routes the service serves without a key, on the port it listens on', () => {
    for (const probe of [container.readinessProbe, container.livenessProbe]) {
      expect(served.has(probe.httpGet.path), probe.httpGet.path).toBe(true);
      expect(ROUTES.find((route) => routePaths(route).includes(probe.httpGet.path))?.auth).toBe('open');
    }
    expect(container.ports[0].containerPort).toBe(parseListen(config.gateway.Listen).port);
  });

  it('gives the pod longer to stop than the service takes to drain', () => {
    expect(deployment.spec.template.spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(config.gateway.ShutdownTimeout + 5000);
  });

  it('mounts the dictionaries where the config looks for them, and the HPA targets the Deployment', () => {
    expect(container.volumeMounts.map((mount: { mountPath: string }) => mount.mountPath)).toContain(config.dictionaries.Dir);
    const [hpa] = manifest('hpa.yaml');
    expect(hpa.spec.scaleTargetRef.name).toBe(deployment.metadata.name);
    const [service] = manifest('service.yaml');
    expect(service.spec.selector).toEqual(deployment.spec.selector.matchLabels);
  });
});

/** Kubernetes quantities (`4Gi`, `512Mi`, `3G`) in bytes */
function bytes(quantity: string): number {
  const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(quantity);
  if (!match) throw new Error(`not a quantity: ${quantity}`);
  const unit = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, k: 1e3, M: 1e6, G: 1e9, T: 1e12 }[match[2] ?? ''] ?? 1;
  return Number(match[1]) * unit;
}

describe('deploy/k8s sizing, state and dictionaries', () => {
  const [configMap] = manifest('configmap.yaml');
  const config = configFromObject(parse(configMap.data['address-service.yaml']), 'configmap.yaml');
  const [deployment] = manifest('deployment.yaml');
  const pod = deployment.spec.template.spec;
  const container = pod.containers[0];
  const claims = Object.fromEntries(manifest('pvc.yaml').map((claim) => [claim.metadata.name, claim]));
  const volumeOf = (path: string) => {
    const mount = container.volumeMounts.find((m: { mountPath: string }) => path === m.mountPath || path.startsWith(`${m.mountPath}/`));
    return pod.volumes.find((v: { name: string }) => v.name === mount?.name);
  };

  it('requests memory for a national dictionary in each worker, with room for a reload beside it', () => {
    // docs/DEPLOY.md "Sizing": per worker ≈1.6 GB with the id indexes built, +≈1.15 GB while a reload loads; the primary ≈0.1 GB
    const workers = Number(container.env.find((e: { name: string }) => e.name === 'WORKERS').value);
    expect(bytes(container.resources.requests.memory)).toBeGreaterThanOrEqual(workers * 1.6e9 + 0.1e9);
    expect(bytes(container.resources.limits.memory)).toBeGreaterThanOrEqual(workers * (1.6e9 + 1.15e9) + 0.1e9);
    expect(Number(container.resources.requests.cpu)).toBe(workers);
  });

  it('keeps the license state on one volume every replica mounts, not in the pod', () => {
    expect(config.license.StateFile).not.toBe('');
    const volume = volumeOf(config.license.StateFile);
    expect(volume?.emptyDir).toBeUndefined();
    expect(claims[volume.persistentVolumeClaim.claimName].spec.accessModes).toContain('ReadWriteMany');
  });

  it('builds the page into a volume of the pod, and writes nothing outside its volumes', () => {
    expect(volumeOf('/app/build/web')?.emptyDir).toBeDefined();
    expect(container.securityContext.readOnlyRootFilesystem).toBe(true);
    for (const path of ['/app/build/web', '/tmp', config.license.StateFile]) expect(volumeOf(path), path).toBeDefined();
  });

  it('fills the dictionary volume with a Job of the same image, as the user the pods run as', () => {
    const [job] = manifest('dictionaries-job.yaml');
    const [dataClaim] = manifest('data-pvc.yaml');
    const spec = job.spec.template.spec;
    const build = spec.containers[0];
    expect(job.kind).toBe('Job');
    expect(build.image).toBe(container.image);
    expect(spec.securityContext.runAsUser).toBe(pod.securityContext.runAsUser);
    const out = build.command[build.command.indexOf('--out') + 1];
    const outVolume = spec.volumes.find((v: { name: string }) => v.name === build.volumeMounts.find((m: { mountPath: string }) => m.mountPath === out).name);
    expect(outVolume.persistentVolumeClaim.claimName).toBe(volumeOf(config.dictionaries.Dir).persistentVolumeClaim.claimName);
    const dataDir = build.env.find((e: { name: string }) => e.name === 'DATA_DIR').value;
    const dataVolume = spec.volumes.find((v: { name: string }) => v.name === build.volumeMounts.find((m: { mountPath: string }) => m.mountPath === dataDir).name);
    expect(dataVolume.persistentVolumeClaim.claimName).toBe(dataClaim.metadata.name);
    expect(claims[outVolume.persistentVolumeClaim.claimName].spec.accessModes).toContain('ReadWriteMany');
  });

  it('reloads dictionaries with what the image has: no `kill` binary in node:20-bookworm-slim', () => {
    for (const file of ['deploy/README.md', 'docs/DEPLOY.md', 'deploy/k8s/deployment.yaml']) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toMatch(/exec \S+ -- kill\b/);
    }
    expect(readFileSync('docs/DEPLOY.md', 'utf8')).toContain(`node -e "process.kill(1, 'SIGHUP')"`);
  });
});

describe('deploy/Dockerfile', () => {
  const dockerfile = readFileSync('deploy/Dockerfile', 'utf8');
  it('runs the server as PID 1 in exec form and exposes the default port', () => {
    expect(dockerfile).toMatch(/^CMD \["node", "--import", "tsx", "host\/server\.ts"\]$/m);
    expect(dockerfile).toMatch(/^EXPOSE 8080$/m);
    expect(dockerfile).toContain('/api/v1/health');
  });
});
