/* Sixes Press: stemming for what the reader types. Appended to Material's
   search worker when the site is built (render/site/writer.py), never loaded alone.

   Material's search adds a trailing wildcard to every word typed, so that
   "expl" finds "explode" while typing; lunr runs no pipeline (no stemmer) on
   a word with a wildcard. With the index stemmed ("exploding" is stored as
   "explod"), "exploding*" would then find nothing. Here a word whose only
   wildcard is the trailing one goes through the search pipeline without it
   and gets it back afterwards: "exploding*" becomes "explod*", which finds
   "explode", "exploded" and "exploding" alike, in any language lunr stems. */
(function () {
  var lunr = self.lunr;
  if (!lunr || !lunr.Query || !lunr.Pipeline) return;
  var trailing = /^[^*]+\*$/;
  var clause = lunr.Query.prototype.clause;
  lunr.Query.prototype.clause = function (c) {
    if (c && c.usePipeline === false && trailing.test(c.term || "")) c.usePipeline = true;
    return clause.call(this, c);
  };
  var runString = lunr.Pipeline.prototype.runString;
  lunr.Pipeline.prototype.runString = function (str, metadata) {
    if (typeof str === "string" && trailing.test(str)) {
      return runString.call(this, str.slice(0, -1), metadata).map(function (term) { return term + "*"; });
    }
    return runString.call(this, str, metadata);
  };
})();
