// Audio judged by a real decoder: ffprobe, from Debian's ffmpeg (CI installs it).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const hasFfprobe = spawnSync('ffprobe', ['-version']).status === 0;

export interface Probed {
  container: string;
  codec: string;
  sampleRate: number;
  channels: number;
  seconds: number;
}

export function probe(data: Uint8Array, extension: string): Probed {
  const dir = mkdtempSync(join(tmpdir(), 'mgm-audio-'));
  try {
    const file = join(dir, `speech.${extension}`);
    writeFileSync(file, data);
    const run = spawnSync('ffprobe', ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', file], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`ffprobe refused the file: ${run.stderr}`);
    const { format, streams } = JSON.parse(run.stdout) as { format: Record<string, string>; streams: Array<Record<string, string | number>> };
    const stream = streams[0]!;
    return {
      container: format.format_name!,
      codec: String(stream.codec_name),
      sampleRate: Number(stream.sample_rate),
      channels: Number(stream.channels),
      seconds: Number(stream.duration ?? format.duration),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
