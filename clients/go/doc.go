// Package leafid is a client of Leaf, the ID service: IDs fetched in batches, checked, served from
// memory, and the next batch fetched in the background before this one runs out; several servers
// asked in order with failover. Standard library only.
//
//	client, err := leafid.New([]string{"http://leaf-1:8080", "http://leaf-2:8080"})
//	if err != nil { ... }
//	defer client.Close()
//	orders, err := client.Segment("order")
//	id, err := orders.Next(ctx)
//
// A Client and its buffers are safe for concurrent use by goroutines. Every answer is checked
// before one ID of it is handed out (see README.md); an answer that fails a check is the server's
// failure, never an ID: the next server is asked and the refusal is counted in BadAnswers.
package leafid

// Version is the version of this client; the Python and Java clients of the same release share it.
const Version = "1.0.0"
