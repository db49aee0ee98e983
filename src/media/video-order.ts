// What a new video task takes from its `videos:` fixture: the timing and the files it serves.
import { failure } from '../conversation/errors.js';
import type { VideoTiming } from '../conversation/video.js';
import { videoTiming } from '../config/model-entry.js';
import { resolveInside } from '../config/files.js';
import type { VideoFixtureSpec } from '../config/schema.js';
import type { Compiled } from '../config/types.js';

export function fixtureTiming(fixture: Compiled<VideoFixtureSpec> | undefined): Partial<VideoTiming> | undefined {
  return videoTiming(fixture?.spec.timing);
}

/** The absolute paths of the fixture's video and thumbnail; none without a fixture (the samples serve). */
export function fixtureFiles(fixture: Compiled<VideoFixtureSpec> | undefined): { root?: string; video?: string; thumbnail?: string } {
  if (!fixture) return {};
  const resolved = (file: string | undefined): string | undefined => {
    if (file === undefined) return undefined;
    try {
      return resolveInside(fixture.dir, file);
    } catch (error) {
      throw failure('file_refused', `The videos fixture "${fixture.name}" names ${file}, which is not served: ${(error as Error).message}.`);
    }
  };
  return { root: fixture.dir, video: resolved(fixture.spec.reply?.file), thumbnail: resolved(fixture.spec.reply?.thumbnail) };
}
