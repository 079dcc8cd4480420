//go:build !(linux && (amd64 || arm64))

package scan

// walkTree lists the documents in the folder rel and in its folders, in
// path order: walkDir, where no faster walk is built.
func (s *Scope) walkTree(rel string, out *[]FileInfo) error { return s.walkDir(rel, out) }
