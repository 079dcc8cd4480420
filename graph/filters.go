package graph

import "github.com/canon-md/canon/index"

// Filters (a template's filters, an anchor's filter, a section's filter)
// are compiled by the index, which owns the columns they name: the graph
// only hands a compiled filter back to it.

// Filter is a compiled filter; see index.CompileFilter for the language.
type Filter = index.Filter

// FilterError says where a filter goes wrong.
type FilterError = index.FilterError

// CompileFilter compiles a filter expression.
func CompileFilter(text string) (*Filter, error) { return index.CompileFilter(text) }
