//go:build !unix

package safepath

const openFlags = 0
