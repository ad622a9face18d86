/*===- RbTree.c - The red-black tree links of std::map and std::set -------===*
 *
 * Part of the Enzyme toolchain.
 *
 *===----------------------------------------------------------------------===*
 *
 * libstdc++'s std::map, std::set, std::multimap and std::multiset keep
 * their nodes in a red-black tree whose linking is done in the shared
 * library (_Rb_tree_insert_and_rebalance, _Rb_tree_rebalance_for_erase,
 * _Rb_tree_increment, _Rb_tree_decrement), where the engine cannot see the
 * pointer stores that the shadow tree must mirror. The engine calls these
 * restatements instead (Modes/LibraryRewrites.h) and differentiates them
 * like any code: unlike the rest of the run-time they are not inactive.
 * Any valid red-black tree over the same nodes is what the inline code of
 * the headers expects; these keep the library's layout and conventions.
 *
 * A node is the library's _Rb_tree_node_base: a colour (an int, red = 0,
 * black = 1) and three links. The header, a node inside the container,
 * holds the root as its parent, the leftmost node as its left and the
 * rightmost as its right, and is red: that tells it from the root when
 * stepping back from end().
 *
 *===----------------------------------------------------------------------===*/

enum colour { red = 0, black = 1 };

struct node {
  enum colour colour;
  struct node *parent, *left, *right;
};

static struct node *leftmost_below(struct node *n) {
  while (n->left)
    n = n->left;
  return n;
}

static struct node *rightmost_below(struct node *n) {
  while (n->right)
    n = n->right;
  return n;
}

/* The next node in order; the header after the last. */
struct node *__enzyme_rb_increment(struct node *n) {
  if (n->right)
    return leftmost_below(n->right);
  struct node *up = n->parent;
  while (n == up->right) {
    n = up;
    up = up->parent;
  }
  /* Climbing from the last node reaches the header through the root (the
   * root's parent); with a single node, n is the header already. */
  return n->right != up ? up : n;
}

/* The previous node in order; the last node before the header. */
struct node *__enzyme_rb_decrement(struct node *n) {
  if (n->colour == red && n->parent->parent == n)
    return n->right; /* the header: its right is the last node */
  if (n->left)
    return rightmost_below(n->left);
  struct node *up = n->parent;
  while (n == up->left) {
    n = up;
    up = up->parent;
  }
  return up;
}

/* Turns the subtree at n so that its right child takes its place. */
static void rotate_left(struct node *n, struct node **root) {
  struct node *child = n->right;
  n->right = child->left;
  if (child->left)
    child->left->parent = n;
  child->parent = n->parent;
  if (n == *root)
    *root = child;
  else if (n == n->parent->left)
    n->parent->left = child;
  else
    n->parent->right = child;
  child->left = n;
  n->parent = child;
}

static void rotate_right(struct node *n, struct node **root) {
  struct node *child = n->left;
  n->left = child->right;
  if (child->right)
    child->right->parent = n;
  child->parent = n->parent;
  if (n == *root)
    *root = child;
  else if (n == n->parent->right)
    n->parent->right = child;
  else
    n->parent->left = child;
  child->right = n;
  n->parent = child;
}

/* Links n as the left (as_left) or right child of parent, a leaf position
 * the caller found, then restores the colour rules. */
void __enzyme_rb_insert_and_rebalance(_Bool as_left, struct node *n,
                                      struct node *parent,
                                      struct node *header) {
  struct node **root = &header->parent;
  n->parent = parent;
  n->left = 0;
  n->right = 0;
  n->colour = red;
  if (as_left) {
    parent->left = n; /* the header's left: the first node of an empty tree */
    if (parent == header) {
      header->parent = n;
      header->right = n;
    } else if (parent == header->left) {
      header->left = n;
    }
  } else {
    parent->right = n;
    if (parent == header->right)
      header->right = n;
  }
  /* A red node under a red parent: recolour while the uncle is red, else
   * rotate once or twice. */
  while (n != *root && n->parent->colour == red) {
    struct node *grand = n->parent->parent;
    if (n->parent == grand->left) {
      struct node *uncle = grand->right;
      if (uncle && uncle->colour == red) {
        n->parent->colour = black;
        uncle->colour = black;
        grand->colour = red;
        n = grand;
        continue;
      }
      if (n == n->parent->right) {
        n = n->parent;
        rotate_left(n, root);
      }
      n->parent->colour = black;
      grand->colour = red;
      rotate_right(grand, root);
    } else {
      struct node *uncle = grand->left;
      if (uncle && uncle->colour == red) {
        n->parent->colour = black;
        uncle->colour = black;
        grand->colour = red;
        n = grand;
        continue;
      }
      if (n == n->parent->left) {
        n = n->parent;
        rotate_right(n, root);
      }
      n->parent->colour = black;
      grand->colour = red;
      rotate_left(grand, root);
    }
  }
  (*root)->colour = black;
}

static _Bool is_black(const struct node *n) { return !n || n->colour == black; }

/* Unlinks gone from the tree and restores the colour rules; returns the
 * node to free (gone itself). */
struct node *__enzyme_rb_rebalance_for_erase(struct node *gone,
                                             struct node *header) {
  struct node **root = &header->parent;
  struct node *removed = gone; /* the node whose position disappears */
  struct node *child;          /* what takes removed's place (may be 0) */
  struct node *child_parent;
  if (!gone->left)
    child = gone->right;
  else if (!gone->right)
    child = gone->left;
  else {
    removed = leftmost_below(gone->right); /* the successor */
    child = removed->right;
  }
  if (removed != gone) {
    /* Two children: the successor moves into gone's place. */
    gone->left->parent = removed;
    removed->left = gone->left;
    if (removed != gone->right) {
      child_parent = removed->parent;
      if (child)
        child->parent = removed->parent;
      removed->parent->left = child;
      removed->right = gone->right;
      gone->right->parent = removed;
    } else {
      child_parent = removed;
    }
    if (*root == gone)
      *root = removed;
    else if (gone->parent->left == gone)
      gone->parent->left = removed;
    else
      gone->parent->right = removed;
    removed->parent = gone->parent;
    enum colour c = removed->colour;
    removed->colour = gone->colour;
    gone->colour = c; /* the colour that left the tree */
  } else {
    child_parent = gone->parent;
    if (child)
      child->parent = gone->parent;
    if (*root == gone)
      *root = child;
    else if (gone->parent->left == gone)
      gone->parent->left = child;
    else
      gone->parent->right = child;
    if (header->left == gone)
      header->left = gone->right ? leftmost_below(child) : gone->parent;
    if (header->right == gone)
      header->right = gone->left ? rightmost_below(child) : gone->parent;
  }
  if (gone->colour == black) {
    /* A black node left: child carries an extra black up the tree. */
    while (child != *root && is_black(child)) {
      if (child == child_parent->left) {
        struct node *sibling = child_parent->right;
        if (sibling->colour == red) {
          sibling->colour = black;
          child_parent->colour = red;
          rotate_left(child_parent, root);
          sibling = child_parent->right;
        }
        if (is_black(sibling->left) && is_black(sibling->right)) {
          sibling->colour = red;
          child = child_parent;
          child_parent = child_parent->parent;
          continue;
        }
        if (is_black(sibling->right)) {
          sibling->left->colour = black;
          sibling->colour = red;
          rotate_right(sibling, root);
          sibling = child_parent->right;
        }
        sibling->colour = child_parent->colour;
        child_parent->colour = black;
        if (sibling->right)
          sibling->right->colour = black;
        rotate_left(child_parent, root);
        break;
      }
      struct node *sibling = child_parent->left;
      if (sibling->colour == red) {
        sibling->colour = black;
        child_parent->colour = red;
        rotate_right(child_parent, root);
        sibling = child_parent->left;
      }
      if (is_black(sibling->right) && is_black(sibling->left)) {
        sibling->colour = red;
        child = child_parent;
        child_parent = child_parent->parent;
        continue;
      }
      if (is_black(sibling->left)) {
        sibling->right->colour = black;
        sibling->colour = red;
        rotate_left(sibling, root);
        sibling = child_parent->left;
      }
      sibling->colour = child_parent->colour;
      child_parent->colour = black;
      if (sibling->left)
        sibling->left->colour = black;
      rotate_right(child_parent, root);
      break;
    }
    if (child)
      child->colour = black;
  }
  return gone;
}
