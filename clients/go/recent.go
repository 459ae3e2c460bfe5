package leafid

// recent remembers the last values accepted, by value, up to a limit: a ring for their order and
// a set for the question "was this served before?". Not safe for concurrent use: its owner's mutex
// guards it.
type recent[T comparable] struct {
	limit int
	ring  []T
	next  int
	set   map[T]struct{}
}

func newRecent[T comparable](limit int) *recent[T] {
	return &recent[T]{limit: limit, ring: make([]T, 0, limit), set: make(map[T]struct{}, limit)}
}

func (r *recent[T]) contains(value T) bool {
	_, found := r.set[value]
	return found
}

// add remembers value, forgetting the oldest one once the limit is reached.
func (r *recent[T]) add(value T) {
	if len(r.ring) < r.limit {
		r.ring = append(r.ring, value)
	} else {
		delete(r.set, r.ring[r.next])
		r.ring[r.next] = value
		r.next = (r.next + 1) % r.limit
	}
	r.set[value] = struct{}{}
}
