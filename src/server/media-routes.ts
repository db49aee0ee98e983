// The routes of the images and video endpoints, each a short chain: envelope, key, body, handler.
import type Router from '@koa/router';
import { openaiEnvelope } from '../styles/openai-envelope.js';
import { taskEnvelope } from '../styles/videos/gateway.js';
import type { BodyParsers } from './body.js';
import { authenticate } from './auth.js';
import type { Mock } from './context.js';
import { imageEdits, imageFile, imageGenerations } from './images.js';
import { useStyle } from './routes.js';
import { createVideoTask, getVideoTask } from './video-generations.js';
import { createVideo, deleteVideo, listVideos, retrieveVideo, videoContent } from './videos.js';

export function mediaRoutes(router: Router, mock: Mock, { json, multipart }: BodyParsers): void {
  const auth = authenticate(mock);
  const images = useStyle({ name: 'images', envelope: openaiEnvelope });
  const videos = useStyle({ name: 'videos', envelope: openaiEnvelope });
  const tasks = useStyle({ name: 'videos', envelope: taskEnvelope });

  // The router also takes each path with a trailing slash, as the gateway description writes it.
  router.post('/v1/images/generations', images, auth, json, imageGenerations(mock));
  router.post('/v1/images/edits', images, auth, multipart, imageEdits(mock));
  // Like a vendor's signed URL, a picture's URL needs no key, so an <img> tag can show it.
  router.get('/v1/images/files/:session/:file', images, imageFile(mock));

  router.post('/v1/videos', videos, auth, multipart, createVideo(mock));
  router.get('/v1/videos', videos, auth, listVideos(mock));
  router.get('/v1/videos/:id', videos, auth, retrieveVideo(mock));
  router.delete('/v1/videos/:id', videos, auth, deleteVideo(mock));
  router.get('/v1/videos/:id/content', videos, auth, videoContent(mock));

  router.post('/v1/video/generations', tasks, auth, multipart, createVideoTask(mock));
  router.get('/v1/video/generations/:task_id', tasks, auth, getVideoTask(mock));
}
