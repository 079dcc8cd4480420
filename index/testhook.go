package index

// TestDriver, when set, names the database/sql driver a store connects
// with, given the one it would use: the query-plan guard's tests
// (index/planguard) wrap canon's driver to explain each statement it runs.
// Nil outside tests; it is set before any store opens.
var TestDriver func(name string) string
