package index

import "github.com/canon-md/canon/index/internal/docs"

// The documents' tables' reads are the family index/internal/docs
// (ADR-0080): Store embeds docs.Docs (DocIDOfKey, DocByKey, DocRefs,
// LinksOf, ChunksOf, ChunkTexts, EachNode, EachWorkItem, EachEdge, EachDoc,
// EachLink, HasKeys, FilesOfKeys, ...; and the documents query-template
// filters choose: SelectDocs, DocsPassing, FieldValues), and these are its values' names
// for the store's callers.
type (
	Link            = docs.Link
	KeyedLink       = docs.KeyedLink
	Chunk           = docs.Chunk
	WorkItem        = docs.WorkItem
	UnresolvedCount = docs.UnresolvedCount
	DocFile         = docs.DocFile
	IdentPath       = docs.IdentPath
	SectionBody     = docs.SectionBody
	// DocSelect chooses documents (SelectDocs): every condition that is
	// set must hold.
	DocSelect = docs.DocSelect
)
