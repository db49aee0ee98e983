// The modules and methods of faker a template may call (`{{faker.person.firstName}}`), as the
// installed faker has them: a template is checked at load against this list, so a start does not
// load faker (its English data compiles in about 50 ms) until a reply first needs it.
// test/conversation/faker-names.test.ts holds the list to the installed faker's.
export const FAKER_METHODS: Readonly<Record<string, readonly string[]>> = {
  airline: ['aircraftType', 'airline', 'airplane', 'airport', 'flightNumber', 'recordLocator', 'seat'],
  animal: ['bear', 'bird', 'cat', 'cetacean', 'cow', 'crocodilia', 'dog', 'fish', 'horse', 'insect', 'lion', 'petName', 'rabbit', 'rodent', 'snake', 'type'],
  book: ['author', 'format', 'genre', 'publisher', 'series', 'title'],
  color: ['cmyk', 'colorByCSSColorSpace', 'cssSupportedFunction', 'cssSupportedSpace', 'hsl', 'human', 'hwb', 'lab', 'lch', 'rgb', 'space'],
  commerce: ['department', 'isbn', 'price', 'product', 'productAdjective', 'productDescription', 'productMaterial', 'productName', 'upc'],
  company: ['buzzAdjective', 'buzzNoun', 'buzzPhrase', 'buzzVerb', 'catchPhrase', 'catchPhraseAdjective', 'catchPhraseDescriptor', 'catchPhraseNoun', 'name'],
  database: ['collation', 'column', 'engine', 'mongodbObjectId', 'type'],
  datatype: ['boolean'],
  date: ['anytime', 'between', 'betweens', 'birthdate', 'future', 'month', 'past', 'recent', 'soon', 'timeZone', 'weekday'],
  fakerCore: [],
  finance: ['accountName', 'accountNumber', 'amount', 'bic', 'bitcoinAddress', 'creditCardCVV', 'creditCardIssuer', 'creditCardNumber', 'currency', 'currencyCode', 'currencyName', 'currencyNumericCode', 'currencySymbol', 'ethereumAddress', 'iban', 'litecoinAddress', 'pin', 'routingNumber', 'transactionDescription', 'transactionType'],
  food: ['adjective', 'description', 'dish', 'ethnicCategory', 'fruit', 'ingredient', 'meat', 'spice', 'vegetable'],
  git: ['branch', 'commitDate', 'commitEntry', 'commitMessage', 'commitSha'],
  hacker: ['abbreviation', 'adjective', 'ingverb', 'noun', 'phrase', 'verb'],
  helpers: ['arrayElement', 'arrayElements', 'enumValue', 'fake', 'fromRegExp', 'maybe', 'multiple', 'mustache', 'objectEntry', 'objectKey', 'objectValue', 'rangeToNumber', 'replaceCreditCardSymbols', 'replaceSymbols', 'shuffle', 'slugify', 'uniqueArray', 'weightedArrayElement'],
  image: ['avatar', 'avatarGitHub', 'dataUri', 'personPortrait', 'url', 'urlLoremFlickr', 'urlPicsumPhotos'],
  internet: ['displayName', 'domainName', 'domainSuffix', 'domainWord', 'email', 'emoji', 'exampleEmail', 'httpMethod', 'httpStatusCode', 'ip', 'ipv4', 'ipv6', 'jwt', 'jwtAlgorithm', 'mac', 'password', 'port', 'protocol', 'url', 'userAgent', 'username'],
  location: ['buildingNumber', 'cardinalDirection', 'city', 'continent', 'country', 'countryCode', 'county', 'direction', 'language', 'latitude', 'longitude', 'nearbyGPSCoordinate', 'ordinalDirection', 'postalAddress', 'secondaryAddress', 'state', 'street', 'streetAddress', 'timeZone', 'zipCode'],
  lorem: ['lines', 'paragraph', 'paragraphs', 'sentence', 'sentences', 'slug', 'text', 'word', 'words'],
  music: ['album', 'artist', 'genre', 'songName'],
  number: ['bigInt', 'binary', 'float', 'hex', 'int', 'octal', 'romanNumeral'],
  person: ['bio', 'firstName', 'fullName', 'gender', 'jobArea', 'jobDescriptor', 'jobTitle', 'jobType', 'lastName', 'middleName', 'prefix', 'sex', 'sexType', 'suffix', 'zodiacSign'],
  phone: ['imei', 'number'],
  science: ['chemicalElement', 'unit'],
  string: ['alpha', 'alphanumeric', 'binary', 'fromCharacters', 'hexadecimal', 'nanoid', 'numeric', 'octal', 'sample', 'symbol', 'ulid', 'uuid'],
  system: ['commonFileExt', 'commonFileName', 'commonFileType', 'cron', 'directoryPath', 'fileExt', 'fileName', 'filePath', 'fileType', 'mimeType', 'networkInterface', 'semver'],
  vehicle: ['bicycle', 'color', 'fuel', 'manufacturer', 'model', 'type', 'vehicle', 'vin', 'vrm'],
  word: ['adjective', 'adverb', 'conjunction', 'interjection', 'noun', 'preposition', 'sample', 'verb', 'words'],
};
