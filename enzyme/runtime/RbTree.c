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
  struct node *parent;
  struct node *child[2]; /* left, right: the library's _M_left, _M_right */
};

/* A side of a node; the other side is 1 - side. */
enum { left = 0, right = 1 };

static struct node *outermost(struct node *n, int side) {
  while (n->child[side])
    n = n->child[side];
  return n;
}

/* The next node in order; the header after the last. */
struct node *__enzyme_rb_increment(struct node *n) {
  if (n->child[right])
    return outermost(n->child[right], left);
  struct node *up = n->parent;
  while (n == up->child[right]) {
    n = up;
    up = up->parent;
  }
  /* Climbing from the last node reaches the header through the root (the
   * root's parent); with a single node, n is the header already. */
  return n->child[right] != up ? up : n;
}

/* The previous node in order; the last node before the header. */
struct node *__enzyme_rb_decrement(struct node *n) {
  if (n->colour == red && n->parent->parent == n)
    return n->child[right]; /* the header: its right is the last node */
  if (n->child[left])
    return outermost(n->child[left], right);
  struct node *up = n->parent;
  while (n == up->child[left]) {
    n = up;
    up = up->parent;
  }
  return up;
}

/* Replaces old by new as a child of old's parent (or as the root). */
static void replace_child(struct node *old, struct node *new,
                          struct node **root) {
  if (old == *root)
    *root = new;
  else
    old->parent->child[old == old->parent->child[left] ? left : right] = new;
}

/* Turns the subtree at n towards side: n's child on the other side takes
 * its place (side left: a left rotation). */
static void rotate(struct node *n, int side, struct node **root) {
  struct node *up = n->child[1 - side];
  n->child[1 - side] = up->child[side];
  if (up->child[side])
    up->child[side]->parent = n;
  up->parent = n->parent;
  replace_child(n, up, root);
  up->child[side] = n;
  n->parent = up;
}

/* Links n as the left (as_left) or right child of parent, a leaf position
 * the caller found, then restores the colour rules. */
void __enzyme_rb_insert_and_rebalance(_Bool as_left, struct node *n,
                                      struct node *parent,
                                      struct node *header) {
  struct node **root = &header->parent;
  n->parent = parent;
  n->child[left] = 0;
  n->child[right] = 0;
  n->colour = red;
  if (as_left) {
    parent->child[left] = n; /* the header's left: the first node of an
                                empty tree */
    if (parent == header) {
      header->parent = n;
      header->child[right] = n;
    } else if (parent == header->child[left]) {
      header->child[left] = n;
    }
  } else {
    parent->child[right] = n;
    if (parent == header->child[right])
      header->child[right] = n;
  }
  /* A red node under a red parent: recolour while the uncle is red, else
   * rotate once or twice. */
  while (n != *root && n->parent->colour == red) {
    struct node *grand = n->parent->parent;
    int side = n->parent == grand->child[left] ? left : right;
    struct node *uncle = grand->child[1 - side];
    if (uncle && uncle->colour == red) {
      n->parent->colour = black;
      uncle->colour = black;
      grand->colour = red;
      n = grand;
      continue;
    }
    if (n == n->parent->child[1 - side]) {
      n = n->parent;
      rotate(n, side, root);
    }
    n->parent->colour = black;
    grand->colour = red;
    rotate(grand, 1 - side, root);
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
  if (!gone->child[left])
    child = gone->child[right];
  else if (!gone->child[right])
    child = gone->child[left];
  else {
    removed = outermost(gone->child[right], left); /* the successor */
    child = removed->child[right];
  }
  if (removed != gone) {
    /* Two children: the successor moves into gone's place. */
    gone->child[left]->parent = removed;
    removed->child[left] = gone->child[left];
    if (removed != gone->child[right]) {
      child_parent = removed->parent;
      if (child)
        child->parent = removed->parent;
      removed->parent->child[left] = child;
      removed->child[right] = gone->child[right];
      gone->child[right]->parent = removed;
    } else {
      child_parent = removed;
    }
    replace_child(gone, removed, root);
    removed->parent = gone->parent;
    enum colour c = removed->colour;
    removed->colour = gone->colour;
    gone->colour = c; /* the colour that left the tree */
  } else {
    child_parent = gone->parent;
    if (child)
      child->parent = gone->parent;
    replace_child(gone, child, root);
    /* The first and last nodes, which the header keeps. */
    for (int side = left; side <= right; ++side)
      if (header->child[side] == gone)
        header->child[side] =
            gone->child[1 - side] ? outermost(child, side) : gone->parent;
  }
  if (gone->colour == black) {
    /* A black node left: child carries an extra black up the tree. */
    while (child != *root && is_black(child)) {
      int side = child == child_parent->child[left] ? left : right;
      struct node *sibling = child_parent->child[1 - side];
      if (sibling->colour == red) {
        sibling->colour = black;
        child_parent->colour = red;
        rotate(child_parent, side, root);
        sibling = child_parent->child[1 - side];
      }
      if (is_black(sibling->child[left]) && is_black(sibling->child[right])) {
        sibling->colour = red;
        child = child_parent;
        child_parent = child_parent->parent;
        continue;
      }
      if (is_black(sibling->child[1 - side])) {
        sibling->child[side]->colour = black;
        sibling->colour = red;
        rotate(sibling, 1 - side, root);
        sibling = child_parent->child[1 - side];
      }
      sibling->colour = child_parent->colour;
      child_parent->colour = black;
      if (sibling->child[1 - side])
        sibling->child[1 - side]->colour = black;
      rotate(child_parent, side, root);
      break;
    }
    if (child)
      child->colour = black;
  }
  return gone;
}
