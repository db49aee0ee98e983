// What the admin pages allow a browser (SPEC 13): no other site may frame them, and a page runs
// only its own scripts: files the mock serves, and its inline scripts (the import map) by their
// hash, so a script that found its way into the page (stored XSS) does not run.
import { createHash } from 'node:crypto';

/** Every admin answer: framed by its own origin at most. */
export const NO_FRAMING = { 'content-security-policy': "frame-ancestors 'self'", 'x-frame-options': 'SAMEORIGIN' };

const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script\s*>/gi;

/**
 * The Content-Security-Policy of an HTML page: the framing rule, scripts from the mock itself and
 * the page's own inline scripts by their SHA-256 (computed from the page as it is served), no
 * plugins, and no `<base>` to send its relative URLs elsewhere.
 */
export function pagePolicy(html: string): string {
  const hashes = [...html.matchAll(INLINE_SCRIPT)].map(([, script]) => `'sha256-${createHash('sha256').update(script!).digest('base64')}'`);
  return [NO_FRAMING['content-security-policy'], `script-src 'self' ${hashes.join(' ')}`.trim(), "object-src 'none'", "base-uri 'none'"].join('; ');
}
