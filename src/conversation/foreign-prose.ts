// Seeded text in another language than the request's, for the `wrong_language` fault: fixed
// sentences a model drifting out of English might answer with, sized like the reply it replaces.
import type { Language } from './faults.js';
import type { Random } from './random.js';
import { firstTokens } from './token-chunks.js';
import { countTokens } from './tokens.js';

const SENTENCES: Record<Language, readonly string[]> = {
  fr: [
    "Bien sûr, voici ce qu'il faut savoir.",
    "La solution la plus simple consiste à vérifier la configuration avant de continuer.",
    "Dans la plupart des cas, il suffit de relancer le service.",
    "Ensuite, vous pouvez comparer les résultats avec la version précédente.",
    "Cette approche fonctionne bien pour les petites équipes.",
    "N'oubliez pas d'enregistrer vos modifications.",
  ],
  de: [
    'Natürlich, hier ist ein kurzer Überblick.',
    'Am einfachsten ist es, zuerst die Konfiguration zu überprüfen.',
    'In den meisten Fällen genügt es, den Dienst neu zu starten.',
    'Danach können Sie die Ergebnisse mit der vorherigen Version vergleichen.',
    'Dieser Ansatz funktioniert gut für kleine Teams.',
    'Vergessen Sie nicht, Ihre Änderungen zu speichern.',
  ],
  es: [
    'Claro, aquí tienes un breve resumen.',
    'Lo más sencillo es revisar primero la configuración.',
    'En la mayoría de los casos basta con reiniciar el servicio.',
    'Después puedes comparar los resultados con la versión anterior.',
    'Este enfoque funciona bien para equipos pequeños.',
    'No olvides guardar tus cambios.',
  ],
};

/** About `tokens` tokens (at least one sentence's worth, never more than `limit`) in `language`. */
export function foreignProse(random: Random, language: Language, tokens: number, limit: number): string {
  const bank = SENTENCES[language];
  const sentences = [random.pick(bank)];
  let count = countTokens(sentences[0]!);
  while (count < tokens) {
    const next = random.pick(bank);
    sentences.push(next);
    count += countTokens(next) + 1;
  }
  const text = sentences.join(' ');
  return count <= limit ? text : firstTokens(text, Math.max(1, limit)).join('');
}
