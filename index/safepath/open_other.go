//go:build !unix

package safepath

const openFlags = 0

const noFollow = 0
