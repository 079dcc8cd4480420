package config

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v4"
)

// Merge configures canon merge-driver (docs/merge-driver.md).
type Merge struct {
	// AppendOnly are section headings, besides the Worklog, whose entries
	// are only ever appended: the driver merges them as the union of the
	// entries both sides added.
	AppendOnly []string `json:"append_only"`
}

type mergeFile struct {
	AppendOnly list `yaml:"append_only"`
}

func (m *Merge) merge(n *yaml.Node) error {
	var f mergeFile
	if err := n.Load(&f, yaml.WithKnownFields()); err != nil {
		return err
	}
	if f.AppendOnly == nil {
		return nil
	}
	m.AppendOnly = nil
	for _, h := range f.AppendOnly {
		if strings.TrimSpace(h) == "" {
			return fmt.Errorf("merge.append_only has an empty heading")
		}
		m.AppendOnly = append(m.AppendOnly, strings.TrimSpace(h))
	}
	return nil
}
