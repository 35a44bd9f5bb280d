"""Acting on the page: refs and targets resolved to elements, actions, fields, focus, their changes."""
