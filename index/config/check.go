package config

import yaml "go.yaml.in/yaml/v4"

// Check configures canon check. (Filled in by the check work.)
type Check struct{}

// DefaultCheck is the default check configuration.
func DefaultCheck() Check { return Check{} }

func (c *Check) merge(n *yaml.Node) error {
	return n.Load(&struct{}{}, yaml.WithKnownFields())
}

const templateCheck = ``
