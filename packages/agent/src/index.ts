// Nothing is public yet: this package is an honest skeleton until its issue lands.
export {};
