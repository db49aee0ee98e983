// `mime-types` for the bundled command, loaded at its first use: its table (mime-db, 200 KB) and
// the maps it builds from it at load took about 10 ms of every start, and a model answer set as
// JSON never looks a type up. koa, accepts and type-is reach it only through these functions.
let loaded;
const real = () => (loaded ??= require('mime-types/index.js'));

module.exports = {
  charset: (type) => real().charset(type),
  charsets: { lookup: (type) => real().charsets.lookup(type) },
  contentType: (type) => real().contentType(type),
  extension: (type) => real().extension(type),
  lookup: (path) => real().lookup(path),
  get extensions() {
    return real().extensions;
  },
  get types() {
    return real().types;
  },
};
