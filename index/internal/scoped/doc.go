// Package scoped is the store's reads for scoped context packs
// (ADR-0080): the documents that declare a scope (scope: global, group,
// task, path), the groups a task's group reaches along depends_on, and the
// overview of every group and piece of scoped knowledge. Selecting among
// them is graph's (graph.SelectScoped).
//
// index.Store embeds Scopes (st.ScopeData, st.ScopeOverview), and index
// names its values (index.ScopeData, index.ScopedDoc, ...). It shares the
// store's handle (index/internal/sqlstore) and hands out no rows.
package scoped

import "github.com/canon-md/canon/index/internal/sqlstore"

// Scopes reads what scoped packs need of one index database.
type Scopes struct{ h *sqlstore.Handle }

// New is the scoped reads of the database h holds.
func New(h *sqlstore.Handle) Scopes { return Scopes{h} }
