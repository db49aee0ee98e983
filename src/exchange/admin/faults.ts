// `GET /__admin/faults`: every fault a scenario step may name, transport and semantic, with the
// styles it acts in and what the client receives (SPEC 21).
import { faultCatalogue } from '../../conversation/faults.js';

export function listFaults(): unknown {
  return { faults: faultCatalogue() };
}
