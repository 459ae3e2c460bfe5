module github.com/leafid/leaf/clients/go

go 1.19
