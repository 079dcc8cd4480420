// Package fulltext is the store's table family of the full-text index
// (chunks_fts; ADR-0063, ADR-0080): the words of a phrase as FTS5's
// tokenizer sees them (FTSWords) and a query's phrases (FTSPhrases).
package fulltext
