package config

import yaml "go.yaml.in/yaml/v4"

// Context shapes context packs. (Filled in by the graph work.)
type Context struct{}

// DefaultContext is the default context configuration.
func DefaultContext() Context { return Context{} }

func (c *Context) merge(n *yaml.Node) error {
	return n.Load(&struct{}{}, yaml.WithKnownFields())
}

const templateContext = ``
