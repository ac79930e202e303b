"""A commissioner's first day on the embedded default: README's commands as written, then
the admin and the API in a real browser against ``make run``'s own server."""
