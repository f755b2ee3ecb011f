import { describe, expect, it } from 'vitest';
import { ageDays, ServiceMetrics } from '../../../host/metrics.js';

describe('ServiceMetrics', () => {
  it('writes a route\'s counts as Prometheus counters and cumulative histograms', async () => {
    const metrics = new ServiceMetrics({ defaultMetrics: false });
    const stats = metrics.route('POST', '/api/v1/suggest/address');
    stats.observe(200, 0.8, 0.3, 100, 2_000);
    stats.observe(200, 30, 20, 100, 70_000);
    stats.observe(400, 0.2, -1, 2, 80);
    const text = await metrics.registry.metrics();
    const labels = 'method="POST",route="/api/v1/suggest/address"';
    expect(text).toContain(`address_http_requests_total{${labels},status="200"} 2\n`);
    expect(text).toContain(`address_http_requests_total{${labels},status="400"} 1\n`);
    expect(text).toContain(`address_http_request_duration_seconds_bucket{${labels},le="0.0005"} 1\n`);
    expect(text).toContain(`address_http_request_duration_seconds_bucket{${labels},le="0.001"} 2\n`);
    expect(text).toContain(`address_http_request_duration_seconds_bucket{${labels},le="0.05"} 3\n`);
    expect(text).toContain(`address_http_request_duration_seconds_count{${labels}} 3\n`);
    // no handler ran for the refusal
    expect(text).toContain(`address_engine_duration_seconds_count{${labels}} 2\n`);
    expect(text).toContain(`address_http_response_size_bytes_bucket{${labels},le="65536"} 2\n`);
    expect(text).toContain(`address_http_response_size_bytes_bucket{${labels},le="+Inf"} 3\n`);
    expect(text).toContain(`address_http_response_size_bytes_sum{${labels}} 72080\n`);
    expect(text).toContain('# TYPE address_http_request_duration_seconds histogram');
  });
});

describe('ageDays(sourceDate, now)', () => {
  it('counts days from the date of the source data', () => {
    expect(ageDays('20250101', Date.UTC(2025, 0, 11, 12))).toBe(10.5);
    expect(ageDays('', Date.UTC(2025, 0, 11))).toBeNaN();
  });
});
