/**
 * Learning to rank inside Solr: {@link org.pubmatch.solr.ltr.LightGbmModel}, an evaluator of
 * LightGBM's text models with the semantics of pubmatch's TypeScript scorer, and {@link
 * org.pubmatch.solr.ltr.LightGbmScore}, its command line for tests.
 */
package org.pubmatch.solr.ltr;
