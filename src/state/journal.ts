// One journal entry per request (admin requests and preflights excepted): what was asked,
// what answered it, and for an unmatched chat request the closest fixture.

export interface NearMiss {
  fixture: string;
  file: string;
  failed: string[];
}

export interface JournalEntry {
  id: string;
  time: string;
  session: string;
  method: string;
  path: string;
  style: string | null;
  model: string | null;
  status: number;
  fixture: string | null;
  scenario: string | null;
  duration_ms: number;
  body: unknown;
  near_miss: NearMiss | null;
}
