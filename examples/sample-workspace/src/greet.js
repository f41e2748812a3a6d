'use strict';

/** Returns the greeting for one person. */
function greet(name) {
  return `Hello, ${name}!`;
}

module.exports = { greet };
