// `GET /__admin/metrics`: the Prometheus text format, for a scraper or a test that counts.
import type { Mock } from '../mock.js';
import { TextAnswer } from './request.js';

export async function metrics(mock: Mock): Promise<TextAnswer> {
  const { contentType, text } = await mock.metrics.exposition();
  return new TextAnswer(contentType, text);
}
