package index

import "github.com/canon-md/canon/index/internal/scoped"

// The reads of scoped context packs are the family index/internal/scoped
// (ADR-0080): Store embeds scoped.Scopes (ScopeData, ScopeOverview), and
// these are its values' names for the store's callers.
type (
	ScopedDoc     = scoped.ScopedDoc
	ScopedTask    = scoped.ScopedTask
	GroupEdge     = scoped.GroupEdge
	ScopeData     = scoped.ScopeData
	ScopeOverview = scoped.ScopeOverview
)

// Scope levels a document's frontmatter may declare (scope:).
const (
	ScopeGlobal = scoped.ScopeGlobal
	ScopeGroup  = scoped.ScopeGroup
	ScopeTask   = scoped.ScopeTask
	ScopePath   = scoped.ScopePath
)

// EdgeGroup is the edge type of a group: field (scoped.EdgeGroup).
const EdgeGroup = scoped.EdgeGroup
