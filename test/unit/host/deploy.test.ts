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

describe('deploy/Dockerfile', () => {
  const dockerfile = readFileSync('deploy/Dockerfile', 'utf8');
  it('runs the server as PID 1 in exec form and exposes the default port', () => {
    expect(dockerfile).toMatch(/^CMD \["node", "--import", "tsx", "host\/server\.ts"\]$/m);
    expect(dockerfile).toMatch(/^EXPOSE 8080$/m);
    expect(dockerfile).toContain('/api/v1/health');
  });
});
