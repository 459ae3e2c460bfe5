package leafid_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	leafid "github.com/leafid/leaf/clients/go"
)

func Example() {
	client, err := leafid.New([]string{"http://leaf-1:8080", "http://leaf-2:8080"})
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	ctx := context.Background()

	orders, err := client.Segment("order")
	if err != nil {
		log.Fatal(err)
	}
	id, err := orders.Next(ctx)
	var refusal *leafid.RequestError
	switch {
	case errors.Is(err, leafid.ErrUnknownKey) && errors.As(err, &refusal):
		log.Fatalf("no such tag: %s", refusal.Detail)
	case errors.Is(err, leafid.ErrUnavailable):
		log.Fatal("no Leaf server answered well: ", err)
	case err != nil:
		log.Fatal(err)
	}
	fmt.Println(id)
}
