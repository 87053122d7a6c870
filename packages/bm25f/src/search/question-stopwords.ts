/**
 * English function words that carry no topic in natural-language queries ("why do deep fried
 * foods cause cancer ?", "is kimchi good for you ?", "bugs & drugs in pork : yersinia vs.
 * ractopamine"), beyond PubMed's own stop words: pronouns, question words, auxiliaries,
 * prepositions, conjunctions, and the pieces tokenizers leave of contractions and possessives
 * (`isn 't` → `isn`, `t`; `alzheimer ’ s` → `s`). A closed-class list written for pubmatch.
 *
 * Against a pre-processed corpus such as NFCorpus, where the documents' own stop words are gone,
 * these words are worse than useless in a query: the few documents that still contain one (`vs`
 * is in one NFCorpus document, `s` in 184 after the corpus split possessives) get a large idf
 * for nothing.
 */
// prettier-ignore
export const QUESTION_STOPWORDS: readonly string[] = Object.freeze([
  // pronouns
  'i', 'me', 'my', 'mine', 'myself', 'we', 'us', 'our', 'ours', 'ourselves', 'you', 'your', 'yours',
  'yourself', 'yourselves', 'he', 'him', 'his', 'himself', 'she', 'her', 'hers', 'herself', 'it',
  'its', 'itself', 'they', 'them', 'their', 'theirs', 'themselves', 'one', 'ones',
  // question words
  'what', 'which', 'who', 'whom', 'whose', 'why', 'how', 'when', 'where', 'whether',
  // determiners and quantifiers
  'a', 'an', 'the', 'this', 'that', 'these', 'those', 'some', 'any', 'each', 'every', 'all', 'both',
  'either', 'neither', 'no', 'such', 'other', 'another', 'same', 'own', 'more', 'most', 'much',
  'many', 'few', 'less', 'least',
  // auxiliaries and modals
  'am', 'is', 'are', 'was', 'were', 'be', 'been', 'being', 'have', 'has', 'had', 'having', 'do',
  'does', 'did', 'doing', 'done', 'can', 'could', 'shall', 'should', 'will', 'would', 'may',
  'might', 'must', 'ought',
  // prepositions
  'about', 'above', 'across', 'after', 'against', 'along', 'among', 'around', 'at', 'before',
  'behind', 'below', 'beside', 'between', 'beyond', 'by', 'down', 'during', 'for', 'from', 'in',
  'inside', 'into', 'like', 'of', 'off', 'on', 'onto', 'out', 'over', 'per', 'since', 'than',
  'through', 'to', 'toward', 'towards', 'under', 'until', 'up', 'upon', 'via', 'with', 'within',
  'without', 'vs', 'versus',
  // conjunctions
  'and', 'but', 'or', 'nor', 'so', 'yet', 'because', 'although', 'though', 'while', 'whereas',
  'if', 'unless', 'as', 'then',
  // adverbs
  'not', 'very', 'too', 'also', 'just', 'only', 'even', 'still', 'again', 'ever', 'never',
  'here', 'there', 'now', 'once', 'really', 'quite', 'rather', 'else', 'etc',
  // pieces of contractions and possessives
  's', 't', 'd', 'll', 're', 've', 'm', 'isn', 'aren', 'wasn', 'weren', 'don', 'doesn', 'didn',
  'haven', 'hasn', 'hadn', 'won', 'wouldn', 'shouldn', 'couldn', 'mustn', 'needn', 'isnt', 'arent',
  'wasnt', 'werent', 'dont', 'doesnt', 'didnt', 'havent', 'hasnt', 'hadnt', 'wont', 'wouldnt',
  'shouldnt', 'couldnt', 'cant', 'cannot',
])
