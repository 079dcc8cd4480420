// Package checkreads is the store's reads for canon check and canon learn
// (ADR-0049, ADR-0080): the typed reads index/check and index/learn make
// over an index.Querier, on the live database (index.Store.Read) or on a
// preview of it (index.Store.Preview). They are the only SQL run for
// check and learn; a Querier hands out no rows and no transaction.
//
// It is a family of the store, under index: it shares index's handle
// through index/internal/sqlstore, and index names by aliases the values
// it reads (index.DocID, index.Problem, ...).
package checkreads
