// The languages Whisper knows, by ISO-639-1 code, named the way `verbose_json` names them.
const NAMES = `en english,zh chinese,de german,es spanish,ru russian,ko korean,fr french,ja japanese,pt portuguese,tr turkish,
pl polish,ca catalan,nl dutch,ar arabic,sv swedish,it italian,id indonesian,hi hindi,fi finnish,vi vietnamese,he hebrew,
uk ukrainian,el greek,ms malay,cs czech,ro romanian,da danish,hu hungarian,ta tamil,no norwegian,th thai,ur urdu,
hr croatian,bg bulgarian,lt lithuanian,la latin,mi maori,ml malayalam,cy welsh,sk slovak,te telugu,fa persian,lv latvian,
bn bengali,sr serbian,az azerbaijani,sl slovenian,kn kannada,et estonian,mk macedonian,br breton,eu basque,is icelandic,
hy armenian,ne nepali,mn mongolian,bs bosnian,kk kazakh,sq albanian,sw swahili,gl galician,mr marathi,pa punjabi,
si sinhala,km khmer,sn shona,yo yoruba,so somali,af afrikaans,oc occitan,ka georgian,be belarusian,tg tajik,sd sindhi,
gu gujarati,am amharic,yi yiddish,lo lao,uz uzbek,fo faroese,ht haitian creole,ps pashto,tk turkmen,nn nynorsk,
mt maltese,sa sanskrit,lb luxembourgish,my myanmar,bo tibetan,tl tagalog,mg malagasy,as assamese,tt tatar,haw hawaiian,
ln lingala,ha hausa,ba bashkir,jw javanese,su sundanese,yue cantonese`;

export const LANGUAGE_NAMES: ReadonlyMap<string, string> = new Map(
  NAMES.split(',').map((entry) => {
    const [code, ...name] = entry.trim().split(' ');
    return [code!, name.join(' ')];
  }),
);

/** The name of a language given as a code (`en`) or already as a name (`English`). */
export function languageName(language: string): string | undefined {
  const lower = language.trim().toLowerCase();
  if (LANGUAGE_NAMES.has(lower)) return LANGUAGE_NAMES.get(lower);
  return [...LANGUAGE_NAMES.values()].includes(lower) ? lower : undefined;
}
